# cudaenv shell integration for bash. Load it from ~/.bashrc with
#
#     eval "$(if command -v cudaenv >/dev/null; then cudaenv init bash; elif [ -x ~/.local/bin/cudaenv ]; then ~/.local/bin/cudaenv init bash; fi)"
#
# (the `elif` finds a pip --user or pipx install in ~/.local/bin before a login
# start-up has put it on PATH; `init bash --auto` for the directory hook).
#
# Then `cudaenv use X` and `cudaenv off` change this shell (no eval to type);
# every other subcommand runs as usual, and `command cudaenv ...` bypasses the
# function. With --auto, entering a directory under a `.cuda-version` switches
# to it and leaving switches back.
#
# Rules: never exit or break the shell; when cudaenv fails (bad name, not on
# PATH) its error is shown, nothing changes and its status is returned; the
# prompt hook keeps the user's $?. CUDAENV_SHELL tells cudaenv exactly which
# shell it writes for, for this one call (a child fish or tcsh must not inherit it).
# This file ships inside the package (cudaenv/shell/); `cudaenv init bash` prints it.

# How to run cudaenv itself. `cudaenv init` redefines it below when it was not
# started as the `cudaenv` found on PATH (e.g. `python -m cudaenv init bash`).
__cudaenv_cmd() {
    command cudaenv "$@"
}

cudaenv() {
    local __cudaenv_arg __cudaenv_out __cudaenv_rc=0
    case "${1-}" in
    use | off)
        for __cudaenv_arg in "$@"; do
            case "$__cudaenv_arg" in
            # Help, code for a shell named explicitly and other formats are for reading: print them.
            -h | --help | -s | --shell | --shell=* | --format | --format=*)
                CUDAENV_SHELL=bash __cudaenv_cmd "$@"
                return
                ;;
            esac
        done
        __cudaenv_out=$(CUDAENV_SHELL=bash __cudaenv_cmd "$@") || __cudaenv_rc=$?
        # On failure cudaenv has printed its error and nothing else: change nothing.
        if [ "$__cudaenv_rc" -ne 0 ]; then
            return "$__cudaenv_rc"
        fi
        eval "$__cudaenv_out"
        ;;
    *)
        CUDAENV_SHELL=bash __cudaenv_cmd "$@"
        ;;
    esac
}

# --auto. PROMPT_COMMAND runs this before every prompt, so the usual case (same
# directory as last time) is one comparison and no process. A new directory
# costs a walk up looking for .cuda-version (one stat per level, still no
# process); cudaenv itself runs only when the nearest pin file is another one,
# or when direnv has loaded, left or reloaded an .envrc since the last prompt
# (DIRENV_DIFF changed): direnv sets whole values back, and cudaenv then puts
# its list entries in line with what is active (docs/direnv.md).
_cudaenv_hook() {
    local __cudaenv_status=$?    # the last command's status, for the prompt and later hooks
    if [ "$PWD" != "${_cudaenv_hook_pwd-}" ] || [ "${DIRENV_DIFF-}" != "${_cudaenv_hook_direnv-}" ]; then
        _cudaenv_hook_pwd=$PWD
        _cudaenv_auto
    fi
    return "$__cudaenv_status"
}

_cudaenv_auto() {
    local __cudaenv_dir="$PWD" __cudaenv_pin= __cudaenv_out
    while :; do
        if [ -f "${__cudaenv_dir%/}/.cuda-version" ]; then
            __cudaenv_pin="${__cudaenv_dir%/}/.cuda-version"
            break
        fi
        [ -n "$__cudaenv_dir" ] || break
        __cudaenv_dir="${__cudaenv_dir%/*}"
    done
    # _CUDAENV_AUTO_PIN: the pin file cudaenv last acted on (exported, so a
    # subshell in the same project does not switch again).
    if [ "$__cudaenv_pin" = "${_CUDAENV_AUTO_PIN-}" ] && [ "${DIRENV_DIFF-}" = "${_cudaenv_hook_direnv-}" ]; then
        return 0
    fi
    _cudaenv_hook_direnv=${DIRENV_DIFF-}
    __cudaenv_out=$(CUDAENV_SHELL=bash __cudaenv_cmd _auto "$__cudaenv_pin") && eval "$__cudaenv_out"
}

_cudaenv_enable_auto() {
    local __cudaenv_pc=";${PROMPT_COMMAND-};"
    case "$__cudaenv_pc" in
    *";_cudaenv_hook;"*) ;;
    # Right after direnv's hook (loaded earlier in the rc file), so that this one sees
    # what direnv did at the same prompt; direnv's hook keeps $? for it. (A direnv hook
    # loaded later puts itself first.)
    *";_direnv_hook;"*)
        __cudaenv_pc=${__cudaenv_pc/;_direnv_hook;/;_direnv_hook;_cudaenv_hook;}
        __cudaenv_pc=${__cudaenv_pc#;}
        PROMPT_COMMAND=${__cudaenv_pc%;}
        ;;
    # First, so that hooks after it still see the user's $?. (With PROMPT_COMMAND
    # as an array, bash 5.1+, this prefixes its first element.)
    *) PROMPT_COMMAND="_cudaenv_hook${PROMPT_COMMAND:+;$PROMPT_COMMAND}" ;;
    esac
}

# Completion: click's machinery in cudaenv answers (_CUDAENV_COMPLETE=bash_complete;
# lines of "type,value"), this function hands the answer to bash.
_cudaenv_completion() {
    local __cudaenv_resp __cudaenv_item
    __cudaenv_resp=$(env COMP_WORDS="${COMP_WORDS[*]}" COMP_CWORD="$COMP_CWORD" \
        _CUDAENV_COMPLETE=bash_complete cudaenv 2>/dev/null) || return 0
    COMPREPLY=()
    while IFS= read -r __cudaenv_item; do
        case "$__cudaenv_item" in
        dir,*) COMPREPLY=(); compopt -o dirnames 2>/dev/null; return 0 ;;
        file,*) COMPREPLY=(); compopt -o default 2>/dev/null; return 0 ;;
        plain,*) COMPREPLY+=("${__cudaenv_item#plain,}") ;;
        esac
    done <<< "$__cudaenv_resp"
    return 0
}
complete -o nosort -F _cudaenv_completion cudaenv 2>/dev/null ||
    complete -F _cudaenv_completion cudaenv
