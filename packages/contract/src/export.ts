import { z } from 'zod';

/** A finished export's file stays downloadable this long (docs/product.md §9). */
export const DATA_EXPORT_KEEP_HOURS = 24;

/**
 * "Download my data" as a background job (docs/product.md §2, Settings): pending until a worker
 * takes it, running while the ZIP is written, then ready to download or failed.
 */
export const dataExport = z
  .object({
    id: z.string(),
    status: z.enum(['pending', 'running', 'ready', 'failed']),
    /** The file of the ZIP being written (e.g. `plays.csv`); null before and after. */
    phase: z.string().nullable(),
    /** Rows written so far, over every file of the ZIP (each list is written as JSON and CSV). */
    rows_written: z.number().int(),
    /** The rows the ZIP will hold, counted when the export started: new plays may add a few. */
    rows_total: z.number().int(),
    created_at: z.string(),
    finished_at: z.string().nullable(),
    /** When a ready file is deleted (null until ready). */
    expires_at: z.string().nullable(),
    /** The ZIP's size in bytes, once ready. */
    size_bytes: z.number().int().nullable(),
    /** Why a failed export failed, to show as it is. */
    error: z.string().nullable(),
  })
  .meta({ id: 'DataExport' });
export type DataExport = z.infer<typeof dataExport>;

/** `GET /api/user/export`: the user's latest export, or null when none is kept. */
export const dataExportState = z
  .object({ export: dataExport.nullable() })
  .meta({ id: 'DataExportState' });
export type DataExportState = z.infer<typeof dataExportState>;
