// Opening a record file, from the home page or a game page: the record is
// sent to the server, which answers with a new game to replay.

import * as api from './api.js';
import { showMessage } from './dom.js';
import { t } from './i18n.js';

/** MAX_RECORD is the largest record file sent, in bytes (the server's limit). */
export const MAX_RECORD = 1 << 20;

/** uploadFile sends the file chosen in input and opens its game. */
export async function uploadFile(input, messageEl) {
  const file = input.files && input.files[0];
  if (!file) return;
  try {
    if (file.size > MAX_RECORD) throw new Error(t('upload.too_large'));
    const text = await file.text();
    showMessage(messageEl, t('upload.reading'), 'info');
    const s = await api.uploadRecord(text);
    location.assign(`/g/${encodeURIComponent(s.id)}`);
  } catch (e) {
    showMessage(messageEl, e.message);
  } finally {
    input.value = '';
  }
}
