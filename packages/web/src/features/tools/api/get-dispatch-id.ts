import { api } from "../../../lib/api-client";

/** GET /whatsappzdg: the id of the connected default connection, used as the tools' "dispatch ID". */
export const getDispatchId = () => api.get<{ id: number }>("/whatsappzdg");
