/// <reference types="vite/client" />

declare global {
  interface ImportMetaEnv {
    /**
     * Address of the demo video shown on the landing page (any URL a `<video>` can play).
     * Set it at build time, e.g. `VITE_DEMO_VIDEO_URL=https://… npm run build`; when unset the
     * landing page shows no video.
     */
    readonly VITE_DEMO_VIDEO_URL?: string;
  }
}

export {};
