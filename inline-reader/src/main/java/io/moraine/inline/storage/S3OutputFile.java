package io.moraine.inline.storage;

import org.apache.parquet.io.DelegatingPositionOutputStream;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A parquet-java output file that becomes one S3 object when the writer closes it. The bytes are staged in a local
 * temporary file and sent with a single PutObject rather than a multipart upload: the object then appears whole or
 * not at all, the SDK can retry the request from the file, and a failure leaves no unfinished upload behind to
 * abort. Flushed files hold inlined rows and are small; one PutObject takes up to 5 GB.
 */
final class S3OutputFile
        implements OutputFile
{
    private final S3Client client;
    private final S3Location location;

    S3OutputFile(S3Client client, S3Location location)
    {
        this.client = client;
        this.location = location;
    }

    @Override
    public PositionOutputStream create(long blockSizeHint)
            throws IOException
    {
        return createOrOverwrite(blockSizeHint);
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint)
            throws IOException
    {
        Path staged = Files.createTempFile("moraine-upload-", ".parquet");
        try {
            return new UploadOnClose(new LocalOutputFile(staged).createOrOverwrite(blockSizeHint), staged);
        }
        catch (IOException | RuntimeException e) {
            Files.deleteIfExists(staged);
            throw e;
        }
    }

    @Override
    public boolean supportsBlockSize()
    {
        return false;
    }

    @Override
    public long defaultBlockSize()
    {
        return -1;
    }

    @Override
    public String getPath()
    {
        return location.toString();
    }

    private final class UploadOnClose
            extends DelegatingPositionOutputStream
    {
        private final PositionOutputStream staging;
        private final Path staged;
        private boolean closed;

        private UploadOnClose(PositionOutputStream staging, Path staged)
        {
            super(staging);
            this.staging = staging;
            this.staged = staged;
        }

        @Override
        public long getPos()
                throws IOException
        {
            return staging.getPos();
        }

        @Override
        public void close()
                throws IOException
        {
            if (closed) {
                return;
            }
            closed = true;
            try {
                staging.close();
                client.putObject(PutObjectRequest.builder().bucket(location.bucket()).key(location.key()).build(), RequestBody.fromFile(staged));
            }
            catch (SdkException e) {
                throw new IOException("uploading " + location + " failed: " + e.getMessage() + "; check that bucket " + location.bucket()
                        + " exists and that the AWS_* settings (credentials, AWS_REGION, AWS_ENDPOINT) allow writing to it", e);
            }
            finally {
                Files.deleteIfExists(staged);
            }
        }
    }
}
