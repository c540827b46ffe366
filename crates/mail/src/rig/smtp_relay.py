"""The mail rig's SMTP server: aiosmtpd (a real SMTP server) that hands
every mail to dovecot's LMTP for the rig's one user, whoever it is
addressed to, so replies land in the mailbox the watcher watches.
Given a PASSWORD, it also offers AUTH PLAIN and LOGIN (without TLS: the rig
is on loopback) and accepts USER with that password, as a submission server
does; mail without AUTH is still taken, as the rig's other clients send it.

Usage: smtp_relay.py PORT LMTP_SOCKET USER CERT KEY [PASSWORD]
"""

import asyncio
import smtplib
import ssl
import sys

from aiosmtpd.smtp import SMTP, AuthResult

port, lmtp_socket, user, cert, key = sys.argv[1:6]
password = sys.argv[6] if len(sys.argv) > 6 else None


def authenticate(server, session, envelope, mechanism, auth_data):
    login = getattr(auth_data, "login", b"") or b""
    secret = getattr(auth_data, "password", b"") or b""
    ok = password is not None and login.decode() == user and secret.decode() == password
    return AuthResult(success=ok)


class Deliver:
    async def handle_DATA(self, server, session, envelope):
        def send():
            with smtplib.LMTP(lmtp_socket) as lmtp:
                lmtp.sendmail(envelope.mail_from or "", [user], envelope.original_content)

        try:
            await asyncio.get_running_loop().run_in_executor(None, send)
        except Exception as e:  # the client sees why, and may try again
            return f"451 delivery to dovecot failed: {e}"
        return "250 OK delivered"


async def main():
    tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    tls.load_cert_chain(cert, key)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(
        lambda: SMTP(
            Deliver(),
            tls_context=tls,
            enable_SMTPUTF8=True,
            authenticator=authenticate if password else None,
            auth_require_tls=False,
        ),
        "127.0.0.1",
        int(port),
    )
    async with server:
        await server.serve_forever()


asyncio.run(main())
