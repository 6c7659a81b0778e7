# cudaenv shell integration for tcsh. Load it from ~/.tcshrc with
#
#     eval "`cudaenv init tcsh`"          # or: eval "`cudaenv init tcsh --auto`"
#
# Then `cudaenv use X` and `cudaenv off` change this shell (no eval to type);
# every other subcommand runs as usual, and `\cudaenv ...` bypasses the alias.
# With --auto, entering a directory under a `.cuda-version` switches to it and
# leaving switches back.
#
# tcsh has no functions, and an alias cannot hold if/else. So this file is
# sourced with a first word saying why (the alias and the hook keep its path in
# $_cudaenv_src):
#   _cudaenv_init PATH [auto]   from `cudaenv init tcsh`: define the alias, completion, cwdcmd
#   _cudaenv_call WORDS...      the alias `cudaenv WORDS...`
#   _cudaenv_auto PIN           from cudaenv-hook.tcsh (--auto): the nearest pin file changed
# The --auto hook itself, run by cwdcmd at every change of directory, is the
# short cudaenv-hook.tcsh beside this file: tcsh reads a sourced file line by
# line (and a `goto` rescans it), so sourcing this one would cost several times more.
# Its variables are named _cudaenv_* and unset again, except _cudaenv_src,
# _cudaenv_cmd and _cudaenv_tool (set once, by init) and _cudaenv_rc (the
# status it returns). It never sources itself: a nested run
# would share, and unset, this run's variables.
#
# cudaenv's code is written to a temporary file and sourced, not captured with
# "`...`": csh reads a backquoted command's words again after substituting
# them, so an argument (a directory, a toolkit path) holding ! or ` would be
# expanded a second time.
#
# Rules: never exit or break the shell; when cudaenv fails (bad name, not on
# PATH) its error is shown, nothing changes and its status is returned; the hook
# leaves $status alone. CUDAENV_SHELL tells cudaenv exactly which shell it writes
# for, for this one call (through env(1): a child bash or fish must not inherit it).
# This file ships inside the package (cudaenv/shell/).

# (Never `exit` here: in a sourced file that would end the user's shell.)
set _cudaenv_mode = ""
if ( $#argv > 0 ) then
    set _cudaenv_mode = "$argv[1]"
    shift
endif
# What to run and source at the end: 0 nothing, 1 `cudaenv WORDS...`, 2 `cudaenv _auto PIN`.
set _cudaenv_run = 0
set _cudaenv_rc = 0

if ( "$_cudaenv_mode" == "_cudaenv_call" ) then
    if ( $#argv > 0 ) then
        if ( "$argv[1]" == "use" || "$argv[1]" == "off" ) set _cudaenv_run = 1
    endif
    if ( $_cudaenv_run ) then
        foreach _cudaenv_arg ( $argv:q )
            # Help, code for a shell named explicitly and other formats are for reading: print them.
            switch ( "$_cudaenv_arg" )
            case -h:
            case --help:
            case -s:
            case --shell:
            case --shell=*:
            case --format:
            case --format=*:
                set _cudaenv_run = 0
                breaksw
            endsw
        end
        unset _cudaenv_arg
    endif
    if ( ! $_cudaenv_run ) then
        $_cudaenv_tool[1]:q CUDAENV_SHELL=tcsh $_cudaenv_cmd:q $argv:q
        set _cudaenv_rc = $status
    endif

else if ( "$_cudaenv_mode" == "_cudaenv_auto" ) then
    set _cudaenv_run = 2

else if ( "$_cudaenv_mode" == "_cudaenv_init" ) then
    set _cudaenv_src = "$argv[1]"
    # How to run cudaenv itself: `cudaenv init tcsh` sets it first when it was not
    # started as the `cudaenv` found on PATH (e.g. `python -m cudaenv init tcsh`).
    if ( ! $?_cudaenv_cmd ) set _cudaenv_cmd = ( cudaenv )
    # env, mktemp and rm by absolute path where they are, so a PATH broken later cannot break us.
    set _cudaenv_tool = ( env mktemp rm )
    foreach _cudaenv_arg ( 1 2 3 )
        if ( -x "/usr/bin/$_cudaenv_tool[$_cudaenv_arg]" ) then
            set _cudaenv_tool[$_cudaenv_arg] = "/usr/bin/$_cudaenv_tool[$_cudaenv_arg]"
        else if ( -x "/bin/$_cudaenv_tool[$_cudaenv_arg]" ) then
            set _cudaenv_tool[$_cudaenv_arg] = "/bin/$_cudaenv_tool[$_cudaenv_arg]"
        endif
    end
    unset _cudaenv_arg
    alias cudaenv 'source "$_cudaenv_src" _cudaenv_call \!*'
    # Completion: click's machinery in cudaenv reads tcsh's $COMMAND_LINE
    # (_CUDAENV_COMPLETE=tcsh_complete) and prints the candidate words.
    complete cudaenv 'p/*/`$_cudaenv_tool[1]:q _CUDAENV_COMPLETE=tcsh_complete $_cudaenv_cmd:q`/'
    if ( $#argv > 1 ) then
        if ( "$argv[2]" == "auto" ) then
            set _cudaenv_cwdcmd = "`alias cwdcmd`"
            if ( "$_cudaenv_cwdcmd" == "" ) then
                alias cwdcmd 'source "$_cudaenv_src:h/cudaenv-hook.tcsh"'
            else if ( "$_cudaenv_cwdcmd" !~ "*cudaenv-hook.tcsh*" ) then
                echo "cudaenv: --auto: cwdcmd is already set; add this to it: source $_cudaenv_src:h/cudaenv-hook.tcsh" > /dev/stderr
            endif
            unset _cudaenv_cwdcmd
            # `cudaenv init tcsh --auto` then runs the hook once, for the
            # directory the shell starts in.
        endif
    endif

else
    echo "cudaenv: load this file with: eval "'"`cudaenv init tcsh`"' > /dev/stderr
endif

if ( $_cudaenv_run ) then
    set _cudaenv_tmp = "`$_cudaenv_tool[2]:q`"
    if ( $status != 0 ) then
        set _cudaenv_rc = 1
    else
        # >! : the file exists (mktemp made it) and the user may have set noclobber.
        # $status must be read right away: `else` and `endif` reset it to 0.
        if ( $_cudaenv_run == 1 ) then
            $_cudaenv_tool[1]:q CUDAENV_SHELL=tcsh $_cudaenv_cmd:q $argv:q >! "$_cudaenv_tmp"
            set _cudaenv_rc = $status
        else
            $_cudaenv_tool[1]:q CUDAENV_SHELL=tcsh $_cudaenv_cmd:q _auto $argv:q >! "$_cudaenv_tmp"
            set _cudaenv_rc = $status
        endif
        # On failure cudaenv has printed its error and nothing else: change nothing.
        if ( $_cudaenv_rc == 0 ) then
            source "$_cudaenv_tmp"
            set _cudaenv_rc = $status
        endif
        $_cudaenv_tool[3]:q -f "$_cudaenv_tmp"
    endif
    unset _cudaenv_tmp
endif
# Unset only here: csh expands the `else if` conditions it skips. The alias
# returns cudaenv's status, so `set status` must be the very last line (an
# `else` or `endif` after it would reset $status to 0).
unset _cudaenv_mode _cudaenv_run
set status = $_cudaenv_rc
