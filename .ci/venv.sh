# A fresh virtual environment for one CI script, sourced:  . .ci/venv.sh NAME [PYTHON]
# Makes $venv (${NAME_VENV} if set, else ${TMPDIR:-/tmp}/mazeplugin-NAME-venv, NAME upper-cased with
# - as _ for the variable) anew with PYTHON (python3 by default) and sets $py to its python.
venv_name=$1
venv_var="$(echo "$venv_name" | tr 'a-z-' 'A-Z_')_VENV"
venv="${!venv_var:-${TMPDIR:-/tmp}/mazeplugin-$venv_name-venv}"
rm -rf "$venv"
timeout 300 "${2:-python3}" -m venv "$venv"
py="$venv/bin/python"
