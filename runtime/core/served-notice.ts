/**
 * The mark of a served page that is the cookie notice alone (issue 47): the server writes it on the
 * page of a path it does not draw (server/init/first-paint.ts noticeOnlyHtml), and the runtime reads
 * it (runtime/src/shell/first-paint.ts): such a page is not one to take over, and its notice gives
 * way to the runtime's. Here, as both sides need the one name.
 */
export const NOTICE_ONLY_CLASS = 'first-paint--notice';
