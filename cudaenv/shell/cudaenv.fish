# cudaenv shell integration for fish (3.1 or newer). Load it from
# ~/.config/fish/config.fish with
#
#     cudaenv init fish | source           # or: cudaenv init fish --auto | source
#
# Then `cudaenv use X` and `cudaenv off` change this shell (no `| source` to
# type); every other subcommand runs as usual, and `command cudaenv ...` bypasses
# the function. With --auto, entering a directory under a `.cuda-version`
# switches to it and leaving switches back.
#
# Rules: never exit or break the shell; when cudaenv fails (bad name, not on
# PATH) its error is shown, nothing changes and its status is returned; hooks
# keep the user's $status. CUDAENV_SHELL tells cudaenv exactly which shell it
# writes for, for this one call (a child bash or tcsh must not inherit it).
# This file ships inside the package (cudaenv/shell/); `cudaenv init fish` prints it.

# How to run cudaenv itself. `cudaenv init` redefines it below when it was not
# started as the `cudaenv` found on PATH (e.g. `python -m cudaenv init fish`).
function __cudaenv_cmd
    command cudaenv $argv
end

function cudaenv --description 'Switch CUDA toolkits: use/off change this shell'
    switch "$argv[1]"
        case use off
            for __cudaenv_arg in $argv
                switch "$__cudaenv_arg"
                    # Help, code for a shell named explicitly and other formats are for reading: print them.
                    case -h --help -s --shell '--shell=*' --format '--format=*'
                        CUDAENV_SHELL=fish __cudaenv_cmd $argv
                        return
                end
            end
            set -l __cudaenv_out (CUDAENV_SHELL=fish __cudaenv_cmd $argv)
            set -l __cudaenv_rc $status
            # On failure cudaenv has printed its error and nothing else: change nothing.
            if test $__cudaenv_rc -ne 0
                return $__cudaenv_rc
            end
            printf '%s\n' $__cudaenv_out | source
        case '*'
            CUDAENV_SHELL=fish __cudaenv_cmd $argv
    end
end

# --auto. An event handler on PWD: it runs only when the directory changes,
# right away, so `cd proj; and make` builds with the project's toolkit and an
# idle prompt costs nothing. It walks up looking for .cuda-version (one stat
# per level; `string` and `test` are builtins, so no process); cudaenv itself
# runs only when the nearest pin file is another one.
function _cudaenv_auto --description 'cudaenv --auto: follow .cuda-version'
    set -l __cudaenv_status $status
    # One `test` and one `string split` (no regex) per level: fish loops are slow.
    set -l __cudaenv_dir $PWD
    test "$__cudaenv_dir" = /; and set __cudaenv_dir ''
    while test -n "$__cudaenv_dir" -a ! -f "$__cudaenv_dir/.cuda-version"
        set __cudaenv_dir (string split -r -m1 / -- $__cudaenv_dir)[1]
    end
    set -l __cudaenv_pin ''
    if test -f "$__cudaenv_dir/.cuda-version"
        set __cudaenv_pin "$__cudaenv_dir/.cuda-version"
    end
    # _CUDAENV_AUTO_PIN: the pin file cudaenv last acted on (exported, so a
    # child shell in the same project does not switch again).
    if test "$__cudaenv_pin" != "$_CUDAENV_AUTO_PIN"
        set -l __cudaenv_out (CUDAENV_SHELL=fish __cudaenv_cmd _auto "$__cudaenv_pin")
        and printf '%s\n' $__cudaenv_out | source
    end
    return $__cudaenv_status
end

function _cudaenv_enable_auto
    function _cudaenv_hook --on-variable PWD --description 'cudaenv --auto'
        _cudaenv_auto
    end
    _cudaenv_auto    # the directory the shell starts in
end

# Completion: click's machinery in cudaenv answers (_CUDAENV_COMPLETE=fish_complete;
# lines of "type,value" with an optional tab and help), this hands it to fish.
function __cudaenv_complete
    set -l __cudaenv_resp (env _CUDAENV_COMPLETE=fish_complete COMP_WORDS=(commandline -cp) \
        COMP_CWORD=(commandline -t) cudaenv 2>/dev/null)
    for __cudaenv_item in $__cudaenv_resp
        set -l __cudaenv_meta (string split -m 1 ',' -- "$__cudaenv_item")
        switch "$__cudaenv_meta[1]"
            case dir
                __fish_complete_directories "$__cudaenv_meta[2]"
            case file
                __fish_complete_path "$__cudaenv_meta[2]"
            case plain
                printf '%s\n' "$__cudaenv_meta[2]"
        end
    end
end
complete --erase --command cudaenv
complete --no-files --command cudaenv --arguments '(__cudaenv_complete)'
