export { useSetContactTags, useSetTicketTags, useTags } from "./api/tags-api";
export { ContactTags } from "./components/contact-tags";
export { TagChips } from "./components/tag-chip";
export { TagFilter } from "./components/tag-filter";
export { TagPicker } from "./components/tag-picker";
