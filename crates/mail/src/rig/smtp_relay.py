"""The mail rig's SMTP server: aiosmtpd (a real SMTP server) that hands
every mail to dovecot's LMTP for the rig's one user, whoever it is
addressed to, so replies land in the mailbox the watcher watches.

Usage: smtp_relay.py PORT LMTP_SOCKET USER CERT KEY
"""

import asyncio
import smtplib
import ssl
import sys

from aiosmtpd.smtp import SMTP

port, lmtp_socket, user, cert, key = sys.argv[1:6]


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
        lambda: SMTP(Deliver(), tls_context=tls, enable_SMTPUTF8=True),
        "127.0.0.1",
        int(port),
    )
    async with server:
        await server.serve_forever()


asyncio.run(main())
