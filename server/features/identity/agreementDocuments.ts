/**
 * The agreements' texts (spec §3: E-Sign consent, Terms of use, Cardholder Agreement), versioned
 * (contract/identity/types.ts agreementVersions) and written in English and Spanish. Plain data: the
 * app lays them out. Changing a text means a new version, which cardholders accept again.
 */
import { agreementVersions, type AgreementDocument, type AgreementKind, type AgreementLocale } from '../../../contract/identity/types.ts';
import { fees, type FeeName } from '../../../contract/shared/fees.ts';

type Text = Omit<AgreementDocument, 'kind' | 'version' | 'locale'>;

const dollars = (name: FeeName) => `$${(fees[name].cents / 100).toFixed(2)}`;

const texts: Record<AgreementKind, Record<AgreementLocale, Text>> = {
  esign: {
    en: {
      title: 'E-Sign Agreement',
      sections: [
        {
          heading: 'Getting your documents electronically',
          paragraphs: [
            'By agreeing, you let Providers give you the Cardholder Agreement, account notices, statements and other records electronically, in the app and by email, instead of on paper.',
            'You need a device with a web browser, an email address, and a way to save or print documents. You can read every document in the app at no cost.',
          ],
        },
        {
          heading: 'Paper copies and withdrawing consent',
          paragraphs: [
            'You may ask for a paper copy of any document at no charge by contacting customer support.',
            'You may withdraw this consent at any time by contacting customer support. If you do, we may close your account, and we will send you any remaining balance.',
          ],
        },
      ],
    },
    es: {
      title: 'Contrato de firma electrónica (E-Sign)',
      sections: [
        {
          heading: 'Cómo recibirá sus documentos',
          paragraphs: [
            'Al aceptar, usted permite que Providers le entregue el Contrato del titular de la tarjeta, los avisos de la cuenta, los estados de cuenta y otros registros de forma electrónica, en la aplicación y por correo electrónico, en lugar de en papel.',
            'Necesita un dispositivo con navegador web, una dirección de correo electrónico y una forma de guardar o imprimir documentos. Puede leer todos los documentos en la aplicación sin costo.',
          ],
        },
        {
          heading: 'Copias en papel y retiro del consentimiento',
          paragraphs: [
            'Puede pedir una copia en papel de cualquier documento sin costo comunicándose con el servicio al cliente.',
            'Puede retirar este consentimiento en cualquier momento comunicándose con el servicio al cliente. Si lo hace, podemos cerrar su cuenta y le enviaremos el saldo que quede.',
          ],
        },
      ],
    },
  },
  terms: {
    en: {
      title: 'Terms of use',
      sections: [
        {
          heading: 'Using the Providers app',
          paragraphs: [
            'These terms cover your use of the Providers card app and website. You must be 18 or older and give true information about yourself.',
            'Keep your password and unlock code secret. Never share a texted code with anyone: Providers will never ask you for it.',
          ],
        },
        {
          heading: 'Your information',
          paragraphs: [
            'We use the information you give us to open and run your account, to verify your identity as the law requires, and to protect you from fraud. We do not sell your information.',
            'If you think someone else has used your account, contact customer support right away.',
          ],
        },
      ],
    },
    es: {
      title: 'Términos de uso',
      sections: [
        {
          heading: 'Uso de la aplicación Providers',
          paragraphs: [
            'Estos términos se aplican a su uso de la aplicación y del sitio web de la tarjeta Providers. Debe tener 18 años o más y dar información verdadera sobre usted.',
            'Mantenga en secreto su contraseña y su código de desbloqueo. Nunca comparta con nadie un código recibido por mensaje de texto: Providers nunca se lo pedirá.',
          ],
        },
        {
          heading: 'Su información',
          paragraphs: [
            'Usamos la información que nos da para abrir y administrar su cuenta, verificar su identidad como lo exige la ley y protegerlo contra el fraude. No vendemos su información.',
            'Si cree que otra persona usó su cuenta, comuníquese de inmediato con el servicio al cliente.',
          ],
        },
      ],
    },
  },
  cardholder3: {
    en: {
      title: 'Cardholder Agreement',
      sections: [
        {
          heading: 'Your prepaid account',
          paragraphs: [
            'Your Providers account is a prepaid account with a debit card. You can only spend the money you have loaded: there is no credit and no overdraft.',
            'Your funds are held at a bank and are eligible for FDIC insurance up to the legal limit if you register your card.',
          ],
        },
        {
          heading: 'Fees',
          paragraphs: [
            `There is no monthly fee and no fee per purchase. ATM withdrawals are free in our network and cost ${dollars('atmWithdrawalOutOfNetwork')} out of network; a balance inquiry at an out-of-network ATM costs ${dollars('atmBalanceInquiryOutOfNetwork')}.`,
            `Loading cash costs ${dollars('cashReload')}, charged after the cash arrives in your account. A physical card costs ${dollars('physicalCard')} to send, and replacing a damaged card ${dollars('cardReplacement')}; a lost or stolen card is replaced free. Faster delivery of a card, only if you ask for it, costs ${dollars('expeditedDelivery')}. The fee disclosure shown before this agreement lists every fee and when it is charged.`,
          ],
        },
        {
          heading: 'Lost or stolen cards and errors',
          paragraphs: [
            'If your card is lost or stolen, report it in the app at once (Manage cards): we block it right away and send you a new one. Tell us at once, too, if you see a transaction you did not make. Your liability for unauthorized transfers is limited by federal law (Regulation E) when you tell us in time.',
            'You can ask us about an error within 60 days of the statement that shows it. We will look into it and tell you the result.',
          ],
        },
      ],
    },
    es: {
      title: 'Contrato del titular de la tarjeta',
      sections: [
        {
          heading: 'Su cuenta prepagada',
          paragraphs: [
            'Su cuenta Providers es una cuenta prepagada con tarjeta de débito. Solo puede gastar el dinero que haya cargado: no hay crédito ni sobregiro.',
            'Sus fondos se guardan en un banco y califican para el seguro de la FDIC hasta el límite legal si registra su tarjeta.',
          ],
        },
        {
          heading: 'Cargos',
          paragraphs: [
            `No hay cargo mensual ni cargo por compra. Los retiros en cajeros automáticos de nuestra red son gratuitos y cuestan ${dollars('atmWithdrawalOutOfNetwork')} fuera de la red; una consulta de saldo en un cajero fuera de la red cuesta ${dollars('atmBalanceInquiryOutOfNetwork')}.`,
            `Cargar efectivo cuesta ${dollars('cashReload')}, que se cobra después de que el efectivo llega a su cuenta. Enviarle una tarjeta física cuesta ${dollars('physicalCard')}, y reemplazar una tarjeta dañada, ${dollars('cardReplacement')}; una tarjeta perdida o robada se reemplaza sin costo. La entrega rápida de una tarjeta, solo si usted la pide, cuesta ${dollars('expeditedDelivery')}. La información de cargos que se muestra antes de este contrato incluye todos los cargos y cuándo se cobran.`,
          ],
        },
        {
          heading: 'Tarjetas perdidas o robadas y errores',
          paragraphs: [
            'Si su tarjeta se pierde o se la roban, repórtelo de inmediato en la aplicación (Administrar tarjetas): la desactivaremos en ese momento y le enviaremos una nueva. Avísenos de inmediato también si ve un movimiento que usted no hizo. Su responsabilidad por transferencias no autorizadas está limitada por la ley federal (Reglamento E) si nos avisa a tiempo.',
            'Puede consultarnos sobre un error dentro de los 60 días siguientes al estado de cuenta que lo muestra. Lo investigaremos y le diremos el resultado.',
          ],
        },
      ],
    },
  },
};

export function agreementDocument(kind: AgreementKind, locale: AgreementLocale): AgreementDocument {
  return { kind, version: agreementVersions[kind], locale, ...texts[kind][locale] };
}
