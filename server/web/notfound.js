// The site's page for an address it has nothing at: an unknown path, or
// a game that does not exist (the server chooses which paragraph stays
// and answers 404). The server has already written it in the reader's
// language; boot gives it the header's language switch and account area.

import { boot } from './boot.js';

boot();
