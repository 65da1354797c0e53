"""``python -m revoke_audit`` and the installed ``revoke-audit``: the command line of
``cli.main``, with Ctrl-C quiet (exit 130) from before the command's modules load."""
from .cli.console import quiet_interrupt


def main() -> None:
    """The command: Ctrl-C quiet first (``console.quiet_interrupt``), then the modules."""
    quiet_interrupt()
    from .cli.commands import main as command

    command(prog_name="revoke-audit")


if __name__ == "__main__":
    main()
