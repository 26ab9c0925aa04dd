package io.moraine.core.store;

import io.moraine.core.error.MoraineException;
import io.moraine.core.error.Secrets;
import io.moraine.core.error.StoreException;
import io.slatedb.uniffi.Error;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An object-store error that quotes a credential (a server echoing signed headers, say) reaches no message, cause or
 * stack trace of the typed error moraine raises. The build gives this JVM a known AWS_SECRET_ACCESS_KEY.
 */
class StoreErrorSecretsTest
{
    private static final String SECRET = System.getenv("AWS_SECRET_ACCESS_KEY");

    @Test
    void aQuotedSecretIsMaskedInTheMessageTheCauseAndTheStackTrace()
    {
        assertThat(SECRET).as("the build sets AWS_SECRET_ACCESS_KEY for tests").isNotNull().hasSizeGreaterThanOrEqualTo(8);
        StoreUri uri = StoreUri.parse("s3://some-bucket/catalog");
        int checked = 0;
        for (Error failure : Stream.of(new Error.Unavailable("403 SignatureDoesNotMatch, canonical request: secret=" + SECRET),
                new Error.Internal("request failed with key " + SECRET), new Error.Invalid("bad " + SECRET), new Error.Data("damaged " + SECRET)).toList()) {
            MoraineException error = SlateDbCalls.translate(failure, uri, "reading a key");
            StringWriter trace = new StringWriter();
            error.printStackTrace(new PrintWriter(trace));
            assertThat(trace.toString()).doesNotContain(SECRET).contains("<redacted>");
            assertThat(error.getMessage()).doesNotContain(SECRET).contains("on store " + uri);
            checked++;
        }
        assertThat(checked).isEqualTo(4);
        MoraineException unavailable = SlateDbCalls.translate(new Error.Unavailable("connection refused"), uri, "reading a key");
        assertThat(unavailable).isInstanceOf(StoreException.class);
        assertThat(unavailable.getMessage()).contains("bucket 'some-bucket'");
        // A clean failure keeps its own cause.
        assertThat(unavailable.getCause()).isInstanceOf(Error.Unavailable.class);
        assertThat(Secrets.redact("no credential here")).isEqualTo("no credential here");
    }
}
