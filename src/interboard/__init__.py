"""interboard: an engine and game master for strategy games played on linked boards."""

__version__ = "0.1.0"
