import { z } from 'zod';

/** One upload's import, live while it runs and as a summary after. */
export const importProgress = z
  .object({
    id: z.string(),
    state: z.enum(['queued', 'running', 'done', 'failed']),
    files_done: z.number().int(),
    files_total: z.number().int(),
    rows_read: z.number().int(),
    plays_added: z.number().int(),
    /** Rows not imported, per reason: podcast, audiobook, video, short, incognito, no_track, malformed, duplicate. */
    skipped: z.record(z.string(), z.number().int()),
    errors: z.array(z.string()),
    created_at: z.string(),
    finished_at: z.string().nullable(),
    /** Running, but its worker stopped (a crash or restart): another resumes it within seconds. */
    interrupted: z.boolean(),
  })
  .meta({ id: 'ImportProgress' });
export type ImportProgress = z.infer<typeof importProgress>;

/** `GET /api/spotify/import` (docs/product.md §3, Import status). */
export const importStatus = z
  .object({
    /** Seconds until another import may start (0: now). */
    full_history_sync_wait: z.number().int(),
    /** ISO time the last import finished, null if none did. */
    last_full_history_sync: z.string().nullable(),
    /** Plays added by all finished imports. */
    total_plays_synced: z.number().int(),
    /** The latest import, running or not. */
    current: importProgress.nullable(),
    /**
     * ISO time a sync last found more new plays than Spotify's recently-played remembers (50):
     * plays before it may be missing until an import fills them. Null if that never happened.
     */
    recent_plays_gap_at: z.string().nullable(),
  })
  .meta({ id: 'ImportStatus' });
export type ImportStatus = z.infer<typeof importStatus>;

export const uploadAccepted = z
  .object({ message: z.string(), import: importProgress })
  .meta({ id: 'UploadAccepted' });
export type UploadAccepted = z.infer<typeof uploadAccepted>;
