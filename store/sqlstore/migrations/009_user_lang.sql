-- The language each account chose for the site: en, pt, ru or lfn, or
-- the empty text until it chooses one (then the browser's own choice or
-- its Accept-Language decides).
ALTER TABLE users ADD COLUMN lang TEXT NOT NULL DEFAULT '';
