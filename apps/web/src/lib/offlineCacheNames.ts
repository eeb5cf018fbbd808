/** The service worker's cache of cover and profile pictures (vite.config.ts, runtime caching). */
export const IMAGE_CACHE_NAME = 'earshot-images';
