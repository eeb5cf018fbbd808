import type { CurrentUser } from '@earshot/contract/user';
import { DropdownMenu } from 'radix-ui';
import { Link, type LinkProps } from 'react-router';
import { Avatar } from '../../../components/ui/Avatar';
import { useNotificationStack } from '../../../lib/notifications';
import { useLogoutMutation } from '../api/logout';

/** The user menu's links (docs/product.md §2, Global behaviour). */
function userMenuLinks(user: CurrentUser): { label: string; to: string }[] {
  return [
    { label: 'Your Stats Profile', to: `/user/${encodeURIComponent(user.username)}` },
    { label: 'Friends', to: '/friends' },
    { label: 'Playlists', to: '/playlists' },
    { label: 'Settings', to: '/settings' },
    { label: 'Ignored Items', to: '/ignored' },
  ];
}

interface UserMenuProps {
  user: CurrentUser;
  /** More props for the link to `to`: the app shell's prefetch on intent (decision 0023). */
  linkProps?: (to: string) => Partial<LinkProps>;
}

export function UserMenu({ user, linkProps }: UserMenuProps) {
  const logout = useLogoutMutation();
  const notifications = useNotificationStack();
  // After success the page is being reloaded to `/`: keep saying so until it is gone.
  const loggingOut = logout.isPending || logout.isSuccess;

  return (
    <DropdownMenu.Root
      // Not modal and not portaled: the page under it stays exposed (no aria-hidden over
      // focusable content) and the menu stays inside its landmark (axe-core).
      modal={false}
    >
      <DropdownMenu.Trigger
        className="user-menu__trigger"
        aria-label={`Account menu for ${user.name}`}
      >
        <Avatar name={user.name || user.username} picture={user.picture} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Content className="menu" align="end" sideOffset={8} collisionPadding={8}>
        <DropdownMenu.Label className="menu__identity">
          <span className="menu__name">{user.name}</span>
          {user.email !== null && <span className="menu__email">{user.email}</span>}
        </DropdownMenu.Label>
        <DropdownMenu.Separator className="menu__separator" />
        {userMenuLinks(user).map((link) => (
          <DropdownMenu.Item key={link.to} className="menu__item" asChild>
            <Link to={link.to} {...linkProps?.(link.to)}>
              {link.label}
            </Link>
          </DropdownMenu.Item>
        ))}
        <DropdownMenu.Separator className="menu__separator" />
        <DropdownMenu.Item
          className="menu__item"
          disabled={loggingOut}
          onSelect={(event) => {
            // Keep the menu open so "Logging out..." stays visible while the call runs.
            event.preventDefault();
            logout.mutate(undefined, {
              onError: (error) =>
                notifications.push(`Failed to log out: ${error.message}`, { kind: 'error' }),
            });
          }}
        >
          {loggingOut ? 'Logging out...' : 'Logout'}
        </DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
