"""The SQLite backend: one file, one writing connection (see ../database.py), the shared SQL repositories."""
