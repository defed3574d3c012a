# bash completion for netpmu: the commands, then each command's options as
# its own --help names them (so they never drift from the loader).
_netpmu() {
	local cur=${COMP_WORDS[COMP_CWORD]} words
	if [ "$COMP_CWORD" -eq 1 ]; then
		words="list stat top doctor trace serve --help --version"
	else
		words=$("${COMP_WORDS[0]}" "${COMP_WORDS[1]}" --help 2>&1 |
			grep -oE -- '(^|[ ,[])--?[A-Za-z][a-z0-9-]*' | tr -d ' ,[' | sort -u)
	fi
	mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
}
complete -o default -F _netpmu netpmu
