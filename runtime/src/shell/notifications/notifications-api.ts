/**
 * The caller's own notifications (the API contract of issue 25, ACCESS.md "self"): the unread
 * count the bell polls, the newest items, marking one or all as read. Every call is quiet: the bell
 * shows its own failure, and a poll that fails says nothing at all.
 */
import type { NotificationList, NotificationRead, NotificationReadAll, NotificationUnreadCount } from '../../../core/generated/api';
import { api } from '../../api/client';

/** The answers are the API's own schemas (schemas/api/notification-*.schema.json, generated types). */
export type NotificationPage = NotificationList;
export type NotificationItem = NotificationList['items'][number];

export const notificationsApi = {
  // the poll is the page's own question, not the user's: no loading bar, no spinner
  unreadCount: () => api.get<NotificationUnreadCount>('/notifications/unread-count', { quiet: true, background: true }),
  newest: (limit: number) => api.get<NotificationPage>(`/notifications?offset=0&limit=${limit}`, { quiet: true }),
  markRead: (id: number) => api.post<NotificationRead>(`/notifications/${id}/read`, {}, { quiet: true }),
  markAllRead: () => api.post<NotificationReadAll>('/notifications/read-all', {}, { quiet: true }),
};
