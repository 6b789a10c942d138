import { publicMediaParamsSchema } from "@zapdesk/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { sendMediaFile } from "../../http/send-media.js";
import { type MediaLinks, PUBLIC_MEDIA_PATH } from "../../media/media-links.js";
import type { ServedFile } from "../../media/storage.js";

export interface PublicMediaDeps {
  links: MediaLinks;
  /** The file of the message a valid link names (MessageService.linkedMedia). */
  linkedMedia(messageId: number): Promise<ServedFile>;
}

/**
 * A message's media through a signed, expiring link, without a session: how a queue's bot fetches
 * what the customer sent (docs/bots.md). The signature is checked before anything is read, and the
 * link reaches that one message's file and nothing else. Kept by nobody: a link is a credential.
 */
export const publicMediaRoutes: FastifyPluginAsyncZod<PublicMediaDeps> = async (app, { links, linkedMedia }) => {
  app.get(
    `${PUBLIC_MEDIA_PATH}/:token`,
    {
      schema: {
        tags: ["messages"],
        summary: "A message's media through a signed link (no session)",
        description:
          "The link a queue's bot receives for a customer's file (Typebot's `attachedFileUrls`, a webhook bot's " +
          "`data.message.mediaUrl`); built from PUBLIC_URL, valid 24 hours. Answers the file with the media route's " +
          "headers (attachment unless the type is safe inline, `nosniff`, `Cache-Control: no-store`). " +
          "403 ERR_MEDIA_LINK_INVALID (tampered, forged, not a link), 410 ERR_MEDIA_LINK_EXPIRED, " +
          "410 ERR_MEDIA_GONE (message deleted or erased, file removed by retention), 404 ERR_NO_MESSAGE_FOUND (no file).",
        security: [],
        params: publicMediaParamsSchema,
      },
    },
    async (request, reply) => {
      const messageId = links.verify(request.params.token);
      return sendMediaFile(reply, await linkedMedia(messageId), "no-store");
    },
  );
};
