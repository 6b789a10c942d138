import { SchedulesPage } from "../../schedules/pages/schedules-page";

/** "Agendamento" (issue 11): the list of scheduled messages, no longer the paid-version alert. */
export default function SchedulePage() {
  return <SchedulesPage />;
}
