import { useEffect, useRef, useState, type RefObject } from 'react';

/**
 * The demo's files in public/demo/, recorded from the app against the sandbox by
 * `npm run demo:record` (e2e/record-demo.ts). The video has no sound: the captions tell the story.
 */
export const DEMO_VIDEO = {
  webm: '/demo/earshot-demo.webm',
  mp4: '/demo/earshot-demo.mp4',
  poster: '/demo/earshot-demo-poster.webp',
  captions: '/demo/earshot-demo.en.vtt',
} as const;

/** How far below the viewport the poster and captions start loading. */
const NEAR_VIEWPORT_MARGIN_PX = 200;

/** Whether `element` has come within the margin of the viewport (it stays true once it has). */
function useNearViewport(element: RefObject<Element | null>): boolean {
  // Without IntersectionObserver there is no telling: load at once.
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');

  useEffect(() => {
    const target = element.current;
    if (near || !target) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: `${NEAR_VIEWPORT_MARGIN_PX}px 0px` },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [element, near]);

  return near;
}

/**
 * The landing page's demo video. Nothing of it loads with the page: the poster and captions once
 * it nears the viewport, the video itself (preload="none") only when the visitor presses play.
 */
export function DemoVideo() {
  const figure = useRef<HTMLElement>(null);
  const near = useNearViewport(figure);

  return (
    <figure ref={figure} className="landing__video" aria-labelledby="landing-video-caption">
      <video
        controls
        playsInline
        preload="none"
        width={1280}
        height={720}
        poster={near ? DEMO_VIDEO.poster : undefined}
        aria-labelledby="landing-video-caption"
      >
        <source src={DEMO_VIDEO.webm} type="video/webm" />
        <source src={DEMO_VIDEO.mp4} type="video/mp4" />
        {near && (
          <track kind="captions" src={DEMO_VIDEO.captions} srcLang="en" label="English" default />
        )}
        <a href={DEMO_VIDEO.mp4}>Download the Earshot demo video</a>
      </video>
      <figcaption id="landing-video-caption" className="landing__video-caption">
        A tour of Earshot: connecting, the Recent feed, the mini player, Discover, search and a
        friend&apos;s profile.
      </figcaption>
    </figure>
  );
}
