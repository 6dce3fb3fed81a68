-- How each account likes the site to look and sound: the colours
-- ("system", "light" or "dark"), the board's theme ("green", "wood" or
-- "slate") and the sounds of play ("on" or "off"), each the empty text
-- until it chooses (then the browser's own choice or the site's default
-- holds).
ALTER TABLE users ADD COLUMN theme TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN board TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN sound TEXT NOT NULL DEFAULT '';
