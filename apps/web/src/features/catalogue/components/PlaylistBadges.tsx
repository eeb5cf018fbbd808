import { CollaborativeIcon, LockIcon } from '../../../components/ui/icons';

/** The lock badge of a private playlist and the badge of a collaborative one. */
export function PlaylistBadges({
  isPublic,
  isCollaborative,
}: {
  isPublic: boolean | null;
  isCollaborative: boolean;
}) {
  return (
    <>
      {isPublic === false && (
        <span className="playlist-badge">
          <LockIcon size={14} />
          Private
        </span>
      )}
      {isCollaborative && (
        <span className="playlist-badge">
          <CollaborativeIcon size={14} />
          Collaborative
        </span>
      )}
    </>
  );
}
