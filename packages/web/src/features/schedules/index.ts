export { SCHEDULES_KEY } from "./api/schedules";
export { PendingSchedules } from "./components/pending-schedules";
export { ScheduleButton } from "./components/schedule-button";
export { ScheduleDialog } from "./components/schedule-dialog";
