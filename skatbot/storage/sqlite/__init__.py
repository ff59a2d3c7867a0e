"""The SQLite repositories: the only place that writes SQL (the PostgreSQL backend will mirror them)."""
