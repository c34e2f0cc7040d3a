/**
 * The caller's own notifications (the API contract of issue 25, ACCESS.md "self"): the unread
 * count the bell polls, the newest items, marking one or all as read. Every call is quiet: the bell
 * shows its own failure, and a poll that fails says nothing at all.
 */
import { api } from '../../api/client';

export interface NotificationItem {
  id: number;
  event: string;
  title: string;
  text: string;
  createdAt: string;
  readAt: string | null;
  /** An in-portal path, e.g. `/app/order?open=123` (a table opens that record's details), or null. */
  link: string | null;
}

export interface NotificationPage {
  total: number;
  unread: number;
  items: NotificationItem[];
}

export const notificationsApi = {
  // the poll is the page's own question, not the user's: no loading bar, no spinner
  unreadCount: () => api.get<{ unread: number }>('/notifications/unread-count', { quiet: true, background: true }),
  newest: (limit: number) => api.get<NotificationPage>(`/notifications?offset=0&limit=${limit}`, { quiet: true }),
  markRead: (id: number) => api.post<{ id: number; readAt: string }>(`/notifications/${id}/read`, {}, { quiet: true }),
  markAllRead: () => api.post<{ updated: number }>('/notifications/read-all', {}, { quiet: true }),
};
