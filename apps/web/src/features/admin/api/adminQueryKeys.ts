export const adminQueryKeys = {
  all: ['admin'] as const,
  notifications: ['admin', 'notifications'] as const,
  history: ['admin', 'history'] as const,
};
