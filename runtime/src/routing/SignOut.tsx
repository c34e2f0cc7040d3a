import { useEffect, useRef, useState } from 'react';
import { Navigate } from 'react-router';
import { api } from '../api/client';
import { clearSession, currentToken } from '../state/session';
import { Loading } from '../screens/Loading';
import { LOGIN_PATH } from './resolve';

/** /sign-out: revokes the token on the server, clears the session, then goes to the login screen. */
export function SignOut() {
  const [done, setDone] = useState(false);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return; // StrictMode runs effects twice; sign out once
    started.current = true;
    const revoke = currentToken() ? api.post('/user/logout', {}, { quiet: true, signOutOn401: false }) : Promise.resolve();
    // the local session ends whatever the server answers: the user asked to leave
    revoke.catch(() => undefined).finally(() => {
      clearSession();
      setDone(true);
    });
  }, []);
  return done ? <Navigate to={LOGIN_PATH} replace /> : <Loading />;
}
