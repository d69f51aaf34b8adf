#!/bin/bash
# complete.sh COMPLETION_FILE LINE: prints, one a line, what bash completion offers at the end
# of LINE, as bash-completion would run the generated completion when Tab is pressed there.
# With SANDBARCTL_FAKE set, sandbarctl is a function that logs its arguments to that file and
# answers two session REFs, so a case can see what the completion asked without any engine.
set -u
source /usr/share/bash-completion/bash_completion || exit 3
source "$1" || exit 3
line=$2
if [[ ${SANDBARCTL_FAKE-} ]]; then
    sandbarctl() {
        local IFS=" "
        printf "%s\n" "$*" >>"$SANDBARCTL_FAKE"
        printf '%s\n' alpha/1234 alpha/5678
    }
fi
# Split at blanks: the lines tested have no other word breaks that matter (bash-completion
# rejoins ":" and "=" itself).
read -ra COMP_WORDS <<<"$line"
[[ $line == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE=$line
COMP_POINT=${#line}
COMPREPLY=()
_sandbarctl sandbarctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
printf '%s\n' "${COMPREPLY[@]}"
