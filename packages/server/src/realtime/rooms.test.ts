import { canAccessTicket } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import { movedDelivery, roomsFor, ticketRooms } from "./rooms.js";

// Who hears about a ticket and who may open it are one rule: a socket sits in one of the ticket's
// rooms exactly when its user passes canAccessTicket.
const users = [
  { id: 1, profile: "admin", queueIds: [] },
  { id: 2, profile: "user", queueIds: [10] },
  { id: 3, profile: "user", queueIds: [10, 20] },
  { id: 4, profile: "user", queueIds: [] },
];
const scopes = [null, 2, 4].flatMap((userId) => [null, 10, 20].map((queueId) => ({ userId, queueId })));

const reaches = (rooms: string[], user: (typeof users)[number]) => roomsFor(user).some((room) => rooms.includes(room));

describe("ticket rooms", () => {
  it("reach exactly the users the access rule lets see the ticket", () => {
    for (const scope of scopes) {
      for (const user of users) {
        expect(reaches(ticketRooms(scope), user), `${JSON.stringify(user)} ${JSON.stringify(scope)}`).toBe(
          canAccessTicket(user, scope),
        );
      }
    }
  });

  it("tell to drop a moved ticket exactly those who could see it before and cannot after", () => {
    for (const from of scopes) {
      for (const to of scopes) {
        const delivery = movedDelivery(7, from, to);
        expect(delivery.payload).toEqual({ action: "delete", ticketId: 7, reason: "moved" });
        for (const user of users) {
          const told = reaches(delivery.rooms, user) && !reaches(delivery.except ?? [], user);
          expect(told).toBe(canAccessTicket(user, from) && !canAccessTicket(user, to));
        }
      }
    }
  });
});
