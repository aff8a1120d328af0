import { BellRing, Handshake, TrendingUp } from "lucide-react";
import { useState } from "react";
import type { To } from "react-router";
import type { PublicTier } from "~/modules/pitch/pitch-page.server";
import type { QualifyingQuestion } from "~/modules/leads/inbox/qualifying-answer";
import type { VisitorActionResult } from "~/modules/contacts/visitor-form-rules";
import { Dialog } from "~/components/ui/dialog";
import { FormSuspense, LazyIntroForm, LazySignalForm, LazySubscribeForm } from "./lazy-forms";

type DialogProps = {
  open: boolean;
  projectTitle: string;
  closeTo: To;
  onClose: () => void;
  actionData: VisitorActionResult | undefined;
};

/** The dialogs' bodies mount only while open: closing resets a form. */
export function IntroDialog({ open, projectTitle, question, closeTo, onClose, actionData }: DialogProps & { question: QualifyingQuestion | null }) {
  return (
    <Dialog
      open={open}
      title="Request Intro"
      description={`Offer or ask for a warm intro to the team behind ${projectTitle}.`}
      icon={<Handshake className="size-5" />}
      closeTo={closeTo}
      onClose={onClose}
    >
      <FormSuspense>
        <LazyIntroForm projectTitle={projectTitle} question={question} closeTo={closeTo} onClose={onClose} actionData={actionData} />
      </FormSuspense>
    </Dialog>
  );
}

export function SubscribeDialog({ open, projectTitle, closeTo, onClose, actionData }: DialogProps) {
  return (
    <Dialog
      open={open}
      title="Follow Updates"
      description={`Get ${projectTitle}'s weekly Friday digest by e-mail. Unsubscribe anytime.`}
      icon={<BellRing className="size-5" />}
      closeTo={closeTo}
      onClose={onClose}
    >
      <FormSuspense>
        <LazySubscribeForm onClose={onClose} actionData={actionData} />
      </FormSuspense>
    </Dialog>
  );
}

export function SignalDialog({
  open,
  projectTitle,
  tiers,
  question,
  closeTo,
  onClose,
  actionData,
}: DialogProps & { tiers: PublicTier[]; question: QualifyingQuestion | null }) {
  // A new key after each success remounts the form: empty fields, 'Show my name' on again.
  const [formKey, setFormKey] = useState(0);
  return (
    <Dialog
      open={open}
      title="Signal Interest"
      description={`Tell the founders of ${projectTitle} which range you might consider.`}
      icon={<TrendingUp className="size-5" />}
      closeTo={closeTo}
      onClose={onClose}
    >
      <FormSuspense>
        <LazySignalForm
          key={formKey}
          tiers={tiers}
          question={question}
          actionData={actionData}
          onSuccess={() => {
            setFormKey((key) => key + 1);
            onClose();
          }}
        />
      </FormSuspense>
    </Dialog>
  );
}
