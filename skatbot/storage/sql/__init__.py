"""The SQL repositories, one set for both backends: portable SQL over an aiosqlite-shaped connection."""
