/**
 * The fee disclosure before anyone agrees, in the form of the CFPB prepaid rule's short form
 * (12 CFR 1005.18(b)(2)) with the long form (every fee) one tap away. Amounts come from
 * contract/shared/fees.ts, the one place they are kept.
 */
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { fees, type FeeName } from '../../../contract/shared/fees.ts';
import { formatDollars } from '../format/money.ts';
import { feeNames } from '../fees/feeNames.ts';
import './agreements.css';

/**
 * The short form's top line: the four fees every prepaid short form shows first. (The lists are kept
 * here, not beside the amounts: home names fees in its first load and would carry them.)
 */
const shortFormStatic = ['monthly', 'perPurchase', 'atmWithdrawalInNetwork', 'atmWithdrawalOutOfNetwork', 'cashReload'] as const satisfies readonly FeeName[];
/** The short form's second part. */
const shortFormOthers = [
  'atmBalanceInquiryInNetwork',
  'atmBalanceInquiryOutOfNetwork',
  'customerServiceLiveAgent',
  'customerServiceAutomated',
  'inactivity',
] as const satisfies readonly FeeName[];
/** Fees not on the short form: "We charge N other types of fees." */
const otherFees = (Object.keys(fees) as FeeName[]).filter(
  (name) => !(shortFormStatic as readonly FeeName[]).includes(name) && !(shortFormOthers as readonly FeeName[]).includes(name),
);

/**
 * When each fee that is not $0 is charged: the long form lists every fee with the conditions under which
 * it is imposed, waived or reduced (12 CFR 1005.18(b)(4)(ii)). Kept here, not beside the names: home
 * names fees in its first load.
 */
const feeConditions: Partial<Record<FeeName, MessageDescriptor>> = {
  atmWithdrawalOutOfNetwork: msg`For each withdrawal at an ATM outside our network. The ATM's owner may charge a fee of its own.`,
  cashReload: msg`For each cash load.`,
  atmBalanceInquiryOutOfNetwork: msg`For each balance check at an ATM outside our network.`,
  cardReplacement: msg`To replace a damaged card. A lost or stolen card is replaced free.`,
  expeditedDelivery: msg`Only if you ask for a card to be sent faster.`,
  physicalCard: msg`To send you a physical card. Your virtual card is free.`,
};

function FeeRows({ names, withConditions = false }: { names: readonly FeeName[]; withConditions?: boolean }) {
  const { i18n } = useLingui();
  return names.map((name) => {
    const condition = withConditions && fees[name].cents > 0 ? feeConditions[name] : undefined;
    return (
      <tr key={name}>
        <th scope="row">
          {i18n._(feeNames[name])}
          {condition ? <span className="fee-condition">{i18n._(condition)}</span> : null}
        </th>
        <td>{formatDollars(fees[name].cents)}</td>
      </tr>
    );
  });
}

export function FeeDisclosure() {
  return (
    <section className="fee-disclosure" aria-labelledby="fee-disclosure-title">
      <h2 id="fee-disclosure-title">
        <Trans>Fees for your Providers account</Trans>
      </h2>
      <table>
        <tbody>
          <FeeRows names={shortFormStatic} />
          <FeeRows names={shortFormOthers} />
        </tbody>
      </table>
      <p>
        <Plural value={otherFees.length} one="We charge # other type of fee." other="We charge # other types of fees." />{' '}
        <Trans>The cash reload fee is charged after your cash arrives in your account.</Trans>
      </p>
      <p>
        <Trans>No overdraft or credit feature. Your funds are eligible for FDIC insurance.</Trans>
      </p>
      <p>
        <Trans>For general information about prepaid accounts, visit cfpb.gov/prepaid.</Trans>
      </p>
      <details>
        <summary>
          <Trans>See every fee (long form)</Trans>
        </summary>
        <table>
          <tbody>
            <FeeRows names={Object.keys(fees) as FeeName[]} withConditions />
          </tbody>
        </table>
      </details>
    </section>
  );
}
