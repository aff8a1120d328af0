import { DeckCard } from "~/components/founder/deck/deck-card";
import { ProjectSectionPage } from "~/components/founder/project-section-nav";
import { requireSessionUser } from "~/modules/auth/session.server";
import { setDeckDownload } from "~/modules/deck/deck-download.server";
import { deckDownloadSchema, deckUploadSchema, type DeckDownloadInput, type DeckUploadInput } from "~/modules/deck/deck-forms";
import { loadDeckSection } from "~/modules/deck/deck-section.server";
import { removeDeck } from "~/modules/deck/remove-deck.server";
import { uploadDeck } from "~/modules/deck/upload-deck.server";
import { callIntent, handleFormAction, intentOf } from "~/modules/forms/form-action.server";
import { readFormData } from "~/modules/http/form-body.server";
import { orRedirectToMyProjects } from "~/modules/projects/owner-guard.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/project-deck";

export const meta: Route.MetaFunction = ({ data: loaderData }) => [{ title: `Deck: ${loaderData?.project.title ?? "Project"} · ${PRODUCT_NAME}` }];

/** The project's Deck section: the deck the pitch page shows, one being drawn (with its progress), the last refusal. */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const { auth, database, flashCookie } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const section = await orRedirectToMyProjects(flashCookie, () => loadDeckSection(database.db, user.id, params.id));
  const { project } = section;
  return {
    projectRole: project.role,
    project: { id: project.id, title: project.title, slug: project.slug },
    live: section.live,
    pending: section.pending,
    refused: section.refused,
    firstPage: section.firstPage,
  };
}

export const DECK_INTENTS = ["upload", "remove", "download"] as const;
export type DeckIntent = (typeof DECK_INTENTS)[number];

/** POST: upload a PDF (multipart), remove the deck, or let visitors download it; each checks the role on the server. */
export async function action({ request, url, params, context }: Route.ActionArgs) {
  const { auth, database, store, decks } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const form = await readFormData(request);
  return handleFormAction<DeckIntent>({
    form,
    logger: context.logger,
    intent: intentOf(form, DECK_INTENTS),
    intents: {
      upload: {
        schema: deckUploadSchema,
        read: (submitted) => ({ deck: submitted.get("deck") }),
        failureMessage: "The deck could not be uploaded. Please try again.",
        run: async ({ deck }: DeckUploadInput) => {
          await uploadDeck(database.db, store, user.id, params.id, { name: deck.name, bytes: Buffer.from(await deck.arrayBuffer()) });
          decks.wake();
          return { message: "Uploaded: your deck is being prepared for phones" };
        },
      },
      remove: callIntent(undefined, "The deck could not be removed. Please try again.", () => removeDeck(database.db, store, user.id, params.id), {
        message: "Deck removed from your pitch page",
      }),
      download: callIntent(
        deckDownloadSchema,
        "The setting could not be saved. Please try again.",
        (input: DeckDownloadInput) => setDeckDownload(database.db, user.id, params.id, input.download),
        (input) => ({ message: input.download ? "Visitors may download the PDF" : "Visitors read the deck on the page only" }),
      ),
    },
  });
}

export default function ProjectDeck({ loaderData }: Route.ComponentProps) {
  const { project, projectRole, ...deck } = loaderData;
  return (
    <ProjectSectionPage projectId={project.id} current="deck" title={`Deck: ${project.title}`}>
      <DeckCard projectId={project.id} slug={project.slug} role={projectRole} {...deck} />
    </ProjectSectionPage>
  );
}
