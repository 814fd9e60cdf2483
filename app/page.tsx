export default function Home() {
  return (
    <main className="mx-auto max-w-3xl p-8">
      <h1 className="text-2xl font-semibold">Datastore Explorer</h1>
      <p className="mt-2">
        The CKAN DataStore API is served at <code>/api/action/datastore_search</code>.
      </p>
    </main>
  );
}
