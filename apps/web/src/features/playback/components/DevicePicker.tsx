import { useQueryClient } from '@tanstack/react-query';
import { DropdownMenu } from 'radix-ui';
import { useState } from 'react';
import { DevicesIcon } from '../../../components/ui/icons';
import { useNotificationStack } from '../../../lib/notifications';
import { useDevicesQuery } from '../api/devices';
import { PLAYBACK_QUERY_KEY } from '../api/playback';
import { postTransfer } from '../api/transfer';
import { WEB_PLAYER_NAME } from '../webPlayer';
import { usePlaybackControl } from './PlaybackProvider';

/** Texts of docs/product.md (Mini player; Errors). */
export const LOADING_DEVICES_TEXT = 'Loading devices…';
export const NO_DEVICES_TEXT = 'No devices found';
export const TRANSFER_FAILED_MESSAGE = 'Failed to transfer playback';
export const WEB_PLAYER_TRANSFER_FAILED_MESSAGE = `Failed to transfer playback to the ${WEB_PLAYER_NAME}`;

/** Lists the user's devices, the active one marked, and moves playback to the one chosen. */
export function DevicePicker() {
  const [open, setOpen] = useState(false);
  const devices = useDevicesQuery(open);
  const control = usePlaybackControl();
  const queryClient = useQueryClient();
  const notifications = useNotificationStack();
  const webPlayerId = control.webPlayer.connectedDeviceId;
  const webPlayerListed = devices.data?.devices.some((device) => device.id === webPlayerId);

  async function transfer(deviceId: string | null) {
    let id = deviceId;
    if (id === null) {
      try {
        id = await control.webPlayer.start();
      } catch (error) {
        notifications.push((error as Error).message, { kind: 'error' });
        return;
      }
    }
    try {
      await postTransfer({ device_id: id, play: true });
      await queryClient.invalidateQueries({ queryKey: PLAYBACK_QUERY_KEY });
    } catch {
      const ownPlayer = deviceId === null || deviceId === webPlayerId;
      notifications.push(ownPlayer ? WEB_PLAYER_TRANSFER_FAILED_MESSAGE : TRANSFER_FAILED_MESSAGE, {
        kind: 'error',
      });
    }
  }

  const list = devices.data?.devices ?? [];
  return (
    <DropdownMenu.Root
      // Not modal and not portaled: the page under it stays exposed (no aria-hidden over
      // focusable content) and the menu stays inside its landmark (axe-core).
      modal={false}
      open={open}
      onOpenChange={setOpen}
    >
      <DropdownMenu.Trigger
        className="round-button mini-player__button"
        aria-label="Devices"
        title="Devices"
      >
        <DevicesIcon size={20} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Content
        className="menu device-picker"
        side="top"
        align="end"
        sideOffset={8}
        collisionPadding={8}
      >
        <DropdownMenu.Label className="menu__identity">
          <span className="menu__name">Play on</span>
        </DropdownMenu.Label>
        <DropdownMenu.Separator className="menu__separator" />
        {devices.isPending && <p className="device-picker__text">{LOADING_DEVICES_TEXT}</p>}
        {devices.isSuccess && list.length === 0 && (
          <p className="device-picker__text">{NO_DEVICES_TEXT}</p>
        )}
        {devices.isError && <p className="device-picker__text">{devices.error.message}</p>}
        {list.map((device) => (
          <DropdownMenu.Item
            key={device.id}
            className="menu__item device-picker__device"
            aria-current={device.is_active || undefined}
            onSelect={() => void transfer(device.id)}
          >
            <span>{device.name}</span>
            <span className="device-picker__type">
              {device.is_active ? 'Playing here' : device.type}
            </span>
          </DropdownMenu.Item>
        ))}
        {control.canControl && devices.isSuccess && !webPlayerListed && (
          <DropdownMenu.Item
            className="menu__item device-picker__device"
            onSelect={() => void transfer(null)}
          >
            <span>This browser</span>
            <span className="device-picker__type">{WEB_PLAYER_NAME}</span>
          </DropdownMenu.Item>
        )}
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
