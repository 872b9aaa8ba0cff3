// The PostgreSQL channel that recordEvents notifies when it writes webhook notifications: a
// delivery worker listens on one connection of its own to deliver without waiting for its poll.
import type { Tx } from './db.ts';
import { NEW_NOTIFICATIONS_CHANNEL } from './domain-events.ts';

export async function listenForNewNotifications(client: Tx): Promise<void> {
  await client.query(`LISTEN ${NEW_NOTIFICATIONS_CHANNEL}`);
}

export async function unlistenNewNotifications(client: Tx): Promise<void> {
  await client.query(`UNLISTEN ${NEW_NOTIFICATIONS_CHANNEL}`);
}
