-- The route a job was translated over (issue 22): a JSON list of legs,
-- {"source","target","engine"} with registry codes; '[]' until translated.
ALTER TABLE jobs ADD COLUMN route TEXT NOT NULL DEFAULT '[]';
