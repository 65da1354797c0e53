"""``python -m revoke_audit``: the same command line as ``revoke-audit``."""
from .cli import main

if __name__ == "__main__":
    main(prog_name="revoke-audit")
