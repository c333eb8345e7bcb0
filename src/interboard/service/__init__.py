"""The game master: persistent multi-player games over HTTP (FastAPI, SQLAlchemy)."""
