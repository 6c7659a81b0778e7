# cudaenv shell integration for zsh. Load it from ~/.zshrc (after compinit, for
# completion) with
#
#     eval "$(if command -v cudaenv >/dev/null; then cudaenv init zsh; elif [ -x ~/.local/bin/cudaenv ]; then ~/.local/bin/cudaenv init zsh; fi)"
#
# (the `elif` finds a pip --user or pipx install in ~/.local/bin before a login
# start-up has put it on PATH; `init zsh --auto` for the directory hook).
#
# Then `cudaenv use X` and `cudaenv off` change this shell (no eval to type);
# every other subcommand runs as usual, and `command cudaenv ...` bypasses the
# function. With --auto, entering a directory under a `.cuda-version` switches
# to it and leaving switches back.
#
# Rules: never exit or break the shell; when cudaenv fails (bad name, not on
# PATH) its error is shown, nothing changes and its status is returned; hooks
# keep the user's $?. CUDAENV_SHELL tells cudaenv exactly which shell it writes
# for, for this one call (a child fish or tcsh must not inherit it).
# `emulate -L zsh` gives each function zsh's defaults whatever the user set.
# This file ships inside the package (cudaenv/shell/); `cudaenv init zsh` prints it.

# How to run cudaenv itself. `cudaenv init` redefines it below when it was not
# started as the `cudaenv` found on PATH (e.g. `python -m cudaenv init bash`).
__cudaenv_cmd() {
    command cudaenv "$@"
}

cudaenv() {
    emulate -L zsh
    local __cudaenv_arg __cudaenv_out __cudaenv_rc=0
    case "${1-}" in
    use | off)
        for __cudaenv_arg in "$@"; do
            case "$__cudaenv_arg" in
            # Help, code for a shell named explicitly and other formats are for reading: print them.
            -h | --help | -s | --shell | --shell=* | --format | --format=*)
                CUDAENV_SHELL=zsh __cudaenv_cmd "$@"
                return
                ;;
            esac
        done
        __cudaenv_out=$(CUDAENV_SHELL=zsh __cudaenv_cmd "$@") || __cudaenv_rc=$?
        # On failure cudaenv has printed its error and nothing else: change nothing.
        if (( __cudaenv_rc != 0 )); then
            return $__cudaenv_rc
        fi
        eval "$__cudaenv_out"
        ;;
    *)
        CUDAENV_SHELL=zsh __cudaenv_cmd "$@"
        ;;
    esac
}

# --auto. A chpwd hook: it runs only when the directory changes (cd, pushd,
# popd), before the next command, so `cd proj && make` builds with the project's
# toolkit and an idle prompt costs nothing. It walks up looking for
# .cuda-version (one stat per level, no process); cudaenv itself runs only when
# the nearest pin file is another one.
_cudaenv_auto() {
    local __cudaenv_status=$?
    emulate -L zsh
    local __cudaenv_dir="$PWD" __cudaenv_pin= __cudaenv_out
    while :; do
        if [[ -f "${__cudaenv_dir%/}/.cuda-version" ]]; then
            __cudaenv_pin="${__cudaenv_dir%/}/.cuda-version"
            break
        fi
        [[ -n "$__cudaenv_dir" ]] || break
        __cudaenv_dir="${__cudaenv_dir%/*}"
    done
    # _CUDAENV_AUTO_PIN: the pin file cudaenv last acted on (exported, so a
    # subshell in the same project does not switch again).
    # Also when direnv has loaded, left or reloaded an .envrc since (DIRENV_DIFF changed):
    # direnv sets whole values back, and cudaenv then puts its list entries in line with
    # what is active (docs/direnv.md).
    if [[ "$__cudaenv_pin" != "${_CUDAENV_AUTO_PIN-}" || "${DIRENV_DIFF-}" != "${_cudaenv_hook_direnv-}" ]]; then
        typeset -g _cudaenv_hook_direnv="${DIRENV_DIFF-}"
        __cudaenv_out=$(CUDAENV_SHELL=zsh __cudaenv_cmd _auto "$__cudaenv_pin") && eval "$__cudaenv_out"
    fi
    return $__cudaenv_status
}

# direnv also acts before a prompt (a reload after .envrc changed): one comparison there.
_cudaenv_precmd() {
    local __cudaenv_status=$?
    if [[ "${DIRENV_DIFF-}" != "${_cudaenv_hook_direnv-}" ]]; then
        _cudaenv_auto
    fi
    return $__cudaenv_status
}

_cudaenv_enable_auto() {
    emulate -L zsh
    # After direnv's hooks (direnv puts its own first in both lists), so these see what it did.
    (( ${+chpwd_functions} )) || typeset -ga chpwd_functions
    if (( ! ${chpwd_functions[(I)_cudaenv_auto]} )); then
        chpwd_functions+=(_cudaenv_auto)
    fi
    (( ${+precmd_functions} )) || typeset -ga precmd_functions
    if (( ! ${precmd_functions[(I)_cudaenv_precmd]} )); then
        precmd_functions+=(_cudaenv_precmd)
    fi
    _cudaenv_auto    # the directory the shell starts in
}

# Completion: click's machinery in cudaenv answers (_CUDAENV_COMPLETE=zsh_complete;
# "type", "value", "help" lines per item), this function hands it to zsh.
_cudaenv_completion() {
    emulate -L zsh
    local -a __cudaenv_resp __cudaenv_plain __cudaenv_described
    local __cudaenv_type __cudaenv_key __cudaenv_descr
    __cudaenv_resp=("${(@f)$(env COMP_WORDS="${words[*]}" COMP_CWORD=$((CURRENT - 1)) \
        _CUDAENV_COMPLETE=zsh_complete cudaenv 2>/dev/null)}")
    for __cudaenv_type __cudaenv_key __cudaenv_descr in "${__cudaenv_resp[@]}"; do
        case "$__cudaenv_type" in
        plain)
            if [[ "$__cudaenv_descr" == _ ]]; then
                __cudaenv_plain+=("$__cudaenv_key")
            else
                __cudaenv_described+=("$__cudaenv_key:$__cudaenv_descr")
            fi
            ;;
        dir) _path_files -/ ;;
        file) _path_files -f ;;
        esac
    done
    if (( $#__cudaenv_described )); then
        _describe -V unsorted __cudaenv_described -U
    fi
    if (( $#__cudaenv_plain )); then
        compadd -U -V unsorted -a __cudaenv_plain
    fi
    return 0
}
if (( ${+functions[compdef]} )); then
    compdef _cudaenv_completion cudaenv
fi
