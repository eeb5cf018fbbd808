import type { Db } from '../db/client';
import { HttpError } from '../errors';
import { forgetBetaAddress } from './beta';
import { exportFilesOf, removeExportFiles } from './export/data-export';
import { deleteUserRow, lockUser } from './users';

/**
 * Deletes an account and everything that belongs to it in one transaction, once the typed
 * confirmation (the username) matches. Other users' figures are their own rows (aggregates per
 * user) and stay as they were, less the friendship with this user. The files of the user's data
 * exports are removed once the deletion is committed.
 */
export async function deleteAccount(db: Db, userId: string, confirmation: string): Promise<void> {
  const exportFiles = await db.transaction(async (tx) => {
    const user = await lockUser(tx, userId);
    if (!user) throw new HttpError(404, 'Account not found');
    if (confirmation.trim().toLowerCase() !== user.username.toLowerCase()) {
      throw new HttpError(400, 'Type your username to confirm the deletion.');
    }
    if (user.email) await forgetBetaAddress(tx, user.email);
    const files = await exportFilesOf(tx, user.id);
    await deleteUserRow(tx, user.id);
    return files;
  });
  await removeExportFiles(exportFiles);
}
