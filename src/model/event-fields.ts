// The public shape of an event object (interface.md §2.1): its keys in table order, and where
// media files live. Shared by the build that renders events and the server that splices them.

/** The keys of an event object, in the order of interface.md §2.1. */
export const EVENT_FIELDS = [
  'id', 'url', 'media', 'gallery', 'contact_box', 'breadcrumb', 'categories', 'groups', 'link',
  'header_image', 'related_links', 'related_media', 'start', 'end', 'allday', 'title', 'organizer',
  'location', 'teaser', 'body', 'keywords', 'description', 'register', 'registration_end',
  'attending_fees', 'attending_fees_info', 'dfp_points', 'contact', 'email', 'last_modified', 'language',
] as const;
export type EventField = (typeof EVENT_FIELDS)[number];

/** The public URL of a media file: the same on every build and every server. */
export function mediaUrl(baseUrl: string, id: number): string {
  return `${baseUrl}/cms/media/${id}/`;
}
