"""The PostgreSQL backend (asyncpg): several bot processes share one database."""
