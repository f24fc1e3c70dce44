-- Trigram indexes serve the staff searches (`ilike '%term%'`); pg_trgm is a trusted extension
-- (PostgreSQL 13+: a database owner may create it), and PGlite loads it (src/db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
