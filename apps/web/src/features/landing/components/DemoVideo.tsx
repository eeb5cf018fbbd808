/**
 * The landing page's demo video. Its address comes from the build-time variable
 * `VITE_DEMO_VIDEO_URL` (see src/vite-env.d.ts); without it there is no video to show.
 */
export function DemoVideo() {
  const source = import.meta.env.VITE_DEMO_VIDEO_URL;
  if (!source) return null;
  return (
    <figure className="landing__video">
      <video src={source} controls playsInline preload="metadata" aria-label="Earshot demo">
        <a href={source}>Watch the Earshot demo</a>
      </video>
    </figure>
  );
}
