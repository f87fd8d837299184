"""Allow ``python -m pitchcli``."""

from pitchcli.cli import main

if __name__ == "__main__":
    main()
