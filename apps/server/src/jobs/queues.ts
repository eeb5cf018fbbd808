/** The pg-boss queues Earshot runs. */
export const QUEUES = {
  syncRecent: 'sync-recent',
  syncLibrary: 'sync-library',
  enrichCatalog: 'enrich-catalog',
  mirrorReleases: 'mirror-releases',
  importHistory: 'import-history',
  exportData: 'export-data',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export interface UserJob {
  userId: string;
}

export interface ImportJob {
  importId: string;
}

export interface ExportJob {
  exportId: string;
}
