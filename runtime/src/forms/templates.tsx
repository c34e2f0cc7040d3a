/**
 * Templates every form shares (FormScreen, LoginScreen): an input carries the `maxlength` of its
 * schema property (spec §5/§9: login 50, password 30, plate 10, VIN 6), and a field shows each
 * message once however many checks (the browser's, the server's 400, a custom rule) said it.
 */
import { Templates } from '@rjsf/react-bootstrap';
import type { BaseInputTemplateProps, FieldErrorProps, TemplatesType } from '@rjsf/utils';
import { errorId } from '@rjsf/utils';
import { distinctMessages, maxLengthOf } from './field-messages';

const DefaultBaseInput = (Templates as Partial<TemplatesType>).BaseInputTemplate!;

function BaseInputTemplate(props: BaseInputTemplateProps) {
  const maxLength = maxLengthOf(props.schema);
  const extraProps = maxLength ? { ...props.extraProps, maxLength } : props.extraProps;
  return <DefaultBaseInput {...props} extraProps={extraProps} />;
}

function FieldErrorTemplate({ errors, fieldPathId }: FieldErrorProps) {
  const messages = distinctMessages(errors as unknown[]);
  if (!messages.length) return null;
  // the first message is enough: the user fixes one thing at a time
  return (
    <div id={errorId(fieldPathId)} className="invalid-feedback d-block field-error">
      {messages[0]}
    </div>
  );
}

export const formTemplates: Partial<TemplatesType> = { BaseInputTemplate, FieldErrorTemplate };
