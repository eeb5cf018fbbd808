interface AvatarProps {
  name: string;
  picture: string | null;
  size?: number;
}

/** A round picture of a person, or their initial when there is no picture. */
export function Avatar({ name, picture, size = 32 }: AvatarProps) {
  if (picture) {
    return <img className="avatar" src={picture} alt="" width={size} height={size} />;
  }
  return (
    <span
      className="avatar avatar--initial"
      style={{ width: size, height: size }}
      aria-hidden="true"
    >
      {name.trim().charAt(0).toUpperCase() || '?'}
    </span>
  );
}
