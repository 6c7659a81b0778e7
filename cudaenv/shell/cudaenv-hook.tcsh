# cudaenv --auto for tcsh: cwdcmd sources this at every change of directory
# (`cudaenv init tcsh --auto` sets that up; see cudaenv.tcsh). Kept apart and
# short: tcsh reads a sourced file line by line, so every line here is paid at
# each `cd`. It walks up looking for .cuda-version with builtins only (no
# process) and runs cudaenv only when the nearest pin file is another one than
# $_CUDAENV_AUTO_PIN, the one it last acted on. An idle prompt runs nothing.
set _cudaenv_dir = "$cwd"
if ( "$_cudaenv_dir" == "/" ) set _cudaenv_dir = ""
while ( "$_cudaenv_dir" != "" && ! -f "$_cudaenv_dir/.cuda-version" )
    set _cudaenv_dir = "$_cudaenv_dir:h"
end
set _cudaenv_pin = ""
if ( -f "$_cudaenv_dir/.cuda-version" ) set _cudaenv_pin = "$_cudaenv_dir/.cuda-version"
set _cudaenv_old = ""
# (Not a one-line `if`: csh substitutes the whole line before testing.)
if ( $?_CUDAENV_AUTO_PIN ) then
    set _cudaenv_old = "$_CUDAENV_AUTO_PIN"
endif
if ( "$_cudaenv_pin" != "$_cudaenv_old" ) then
    source "$_cudaenv_src" _cudaenv_auto "$_cudaenv_pin"
endif
unset _cudaenv_dir _cudaenv_pin _cudaenv_old
