/** The three agreements as buttons that open each text (AgreementDialog): "Read the …". */
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { AgreementKind } from '../../../contract/identity/types.ts';
import './agreements.css';

export const readAgreement: Record<AgreementKind, MessageDescriptor> = {
  esign: msg`Read the E-Sign Agreement`,
  terms: msg`Read the Terms of use`,
  cardholder3: msg`Read the Cardholder Agreement`,
};

export function ReadAgreementButton({ kind, onOpen }: { kind: AgreementKind; onOpen: (kind: AgreementKind) => void }) {
  const { i18n } = useLingui();
  return (
    <button type="button" className="link-button read-agreement" aria-haspopup="dialog" onClick={() => onOpen(kind)}>
      {i18n._(readAgreement[kind])}
    </button>
  );
}
